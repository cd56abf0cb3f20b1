/**
 * `kgen/client`, kept for code generated before the client became its own package: everything
 * @kgen/client exports. New generated code imports @kgen/client directly.
 */
export * from '@kgen/client';

// `kgen/client`, kept for code generated before the client became its own package: everything
// @kgen/client exports. Plain JavaScript, so that such code also runs under plain node after tsc.
// New generated code imports @kgen/client directly.
export * from '@kgen/client';

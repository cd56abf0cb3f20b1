// See index.js: `kgen/client` is @kgen/client.
export * from '@kgen/client';

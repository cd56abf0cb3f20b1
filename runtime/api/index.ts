export * from './meta.js';
export * from './status.js';
export * from './resource.js';

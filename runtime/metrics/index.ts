export * from './apiserver.js';
export * from './series.js';
export * from './storage.js';

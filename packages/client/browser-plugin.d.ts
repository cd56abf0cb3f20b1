/** See browser-plugin.js. */
export declare const browserPlatform: { name: string; setup(build: unknown): void };

/** kgen/conversion: multi-version kinds converted through their storage version (generated code builds them). */
export { defineConversion, spoke, type ConversionDefinition, type KindConversion, type SpokeConversion } from './conversion.js';
export { ConvertingStorage, storageForVersion, type ConvertedEventWatcher } from './storage.js';
export { ConversionScope, conversionDataAnnotation, readConversionData, writeConversionData, type RootConversionScope } from './conversion-data.js';

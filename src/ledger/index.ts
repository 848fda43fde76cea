export * from './checkpoint.js';
export * from './entries.js';
export * from './hash.js';
export * from './note.js';
export * from './tiles.js';
export * from './tree.js';

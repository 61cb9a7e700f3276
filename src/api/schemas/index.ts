export * from './blog-post.js';
export * from './envelopes.js';
export * from './file-object.js';
export * from './funding.js';
export * from './incentive.js';
export * from './project.js';
export * from './user.js';
export * from './wall-post.js';

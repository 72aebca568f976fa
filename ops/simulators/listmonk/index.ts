export * from './simulator';
export * from './sandbox';

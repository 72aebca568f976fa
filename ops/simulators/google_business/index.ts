export * from './simulator';
export * from './sandbox';
export { GBP_DAILY_SHAPES, type GoogleBusinessPerformance } from './performance';

// The workflows bundled into the worker.
export { uploadWorkflow } from './upload.workflow';

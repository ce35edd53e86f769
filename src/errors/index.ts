export { ToolplaneError, describeError, type ToolplaneErrorCode } from './toolplane-error.js';

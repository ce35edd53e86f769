export * from './types.js';
export * from './tool-input-shape.js';
export { repairPairing, MISSING_RESULT_TEXT, type PairingRepairReport } from './repair-pairing.js';
export { normalizeMessages, type NormalizeOptions } from './normalize-messages.js';

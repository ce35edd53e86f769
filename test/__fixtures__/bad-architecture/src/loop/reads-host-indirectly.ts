import os from 'node:os';

const { env: environment } = process;
export const config = environment['TOOLPLANE_CONFIG_DIR'] ?? os.homedir();
export const folder = globalThis.process['cwd']();

export const run = 1;

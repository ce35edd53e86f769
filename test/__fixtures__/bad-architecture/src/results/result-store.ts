export const createResultStore = 1;

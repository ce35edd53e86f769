import { query } from '../loop/query.js';
import { createHookGate } from '../hooks/create-hook-gate.js';
import { createResultStore } from '../results/result-store.js';
import { createAgentSession } from '../session/index.js';

export { query, createHookGate, createResultStore, createAgentSession };

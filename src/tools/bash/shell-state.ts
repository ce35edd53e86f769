/**
 * The shell state lives in the contract, so the permission engine reads the same folder the Bash
 * tool runs in (a `cd` in one call holds for the next, and so must its checks).
 */
export { SHELL_STATE, createShellState, type ShellState } from '../../contract/shell-state.js';

import { describe, expect, it } from 'vitest';
import { createServices } from '../../contract/services.js';
import { createFileStateStore, fileStateService, getFileStateStore, hashBytes } from './file-state-store.js';

const record = (hash: string) => ({ hash, mtimeMs: 1, size: 1, partial: false, recordedAtMs: 0 });

describe('createFileStateStore', () => {
  it('stores, replaces and forgets records by path', () => {
    const store = createFileStateStore();
    expect(store.get('/a')).toBeUndefined();
    store.set('/a', record('1'));
    store.set('/a', record('2'));
    expect(store.get('/a')?.hash).toBe('2');
    store.delete('/a');
    expect(store.get('/a')).toBeUndefined();
    store.set('/b', record('3'));
    store.clear();
    expect(store.paths()).toEqual([]);
  });

  it('forgets the least recently used record past its bound', () => {
    const store = createFileStateStore({ maxEntries: 2 });
    store.set('/a', record('a'));
    store.set('/b', record('b'));
    store.get('/a');
    store.set('/c', record('c'));
    expect(store.paths()).toEqual(['/a', '/c']);
    expect(store.get('/b')).toBeUndefined();
  });

  it('treats names like __proto__ as plain keys', () => {
    const store = createFileStateStore();
    store.set('__proto__', record('p'));
    expect(store.get('__proto__')?.hash).toBe('p');
    expect(store.get('toString')).toBeUndefined();
  });

  it('is reached through its service key, per registry', () => {
    const parent = createServices();
    const main = createFileStateStore();
    parent.set(fileStateService, main);
    const subagent = parent.child();
    const own = createFileStateStore();
    subagent.set(fileStateService, own);
    expect(getFileStateStore(parent)).toBe(main);
    expect(getFileStateStore(subagent)).toBe(own);
    expect(getFileStateStore(createServices())).toBeUndefined();
  });

  it('hashes bytes with SHA-256', () => {
    expect(hashBytes(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

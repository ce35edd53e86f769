/**
 * Typed host services a tool can ask for at call time (file-state store, task registry, the
 * person's interaction channel, …). Tools define their own keys; the host registers values.
 * This keeps built-in tools free of imports from stages or the CLI.
 */
export type ServiceKey<T> = { readonly id: symbol; readonly name: string; readonly __type?: T };

/** Creates a key for a service of type `T`; `name` appears in error messages. */
export function defineService<T>(name: string): ServiceKey<T> {
  return { id: Symbol(name), name };
}

/** Read-only view of the services available to one call. */
export type Services = {
  get<T>(key: ServiceKey<T>): T | undefined;
};

/** A mutable registry of services; `child()` makes a scope that falls back to its parent. */
export type ServiceRegistry = Services & {
  set<T>(key: ServiceKey<T>, value: T): ServiceRegistry;
  child(): ServiceRegistry;
};

/** Creates an empty registry, optionally layered over a parent. */
export function createServices(parent?: Services): ServiceRegistry {
  const values = new Map<symbol, unknown>();
  const registry: ServiceRegistry = {
    get<T>(key: ServiceKey<T>): T | undefined {
      if (values.has(key.id)) return values.get(key.id) as T;
      return parent?.get(key);
    },
    set<T>(key: ServiceKey<T>, value: T) {
      values.set(key.id, value);
      return registry;
    },
    child() {
      return createServices(registry);
    },
  };
  return registry;
}

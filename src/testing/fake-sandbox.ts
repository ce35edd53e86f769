import type { OutsideVerdict, Sandbox, SandboxLaunch, SandboxRequest, SandboxStatus } from '../contract/sandbox.js';

/** A {@link Sandbox} that contains nothing: it records what it was asked and runs commands as they are. */
export type FakeSandbox = Sandbox & {
  /** Every prepared request, in order. */
  readonly requests: SandboxRequest[];
  /** How many launches were released. */
  released(): number;
};

/**
 * An in-memory sandbox for tests of hosts and tools: `status` and `outside` answer as configured,
 * `prepare` records the request and returns its own argv to spawn (no containment at all), or
 * throws `prepareError` to test failing closed.
 */
export function createFakeSandbox(
  options: {
    readonly status?: SandboxStatus;
    readonly outside?: (request: {
      readonly command: string;
      readonly requested: boolean;
    }) => OutsideVerdict | undefined;
    readonly prepareError?: Error;
  } = {},
): FakeSandbox {
  const requests: SandboxRequest[] = [];
  let released = 0;
  const status: SandboxStatus = options.status ?? { available: true, backend: 'fake' };
  return {
    requests,
    released: () => released,
    status: () => Promise.resolve(status),
    outside: (request) =>
      Promise.resolve(
        options.outside
          ? options.outside(request)
          : request.requested && status.available
            ? {
                verdict: 'ask' as const,
                reason: 'the command asks to run outside the sandbox (dangerouslyDisableSandbox)',
              }
            : undefined,
      ),
    prepare(request): Promise<SandboxLaunch> {
      if (options.prepareError) return Promise.reject(options.prepareError);
      requests.push(request);
      const [file, ...args] = request.argv;
      let done = false;
      return Promise.resolve({
        file: file ?? '/bin/sh',
        args,
        env: request.env,
        extraFiles: [],
        summary: `fake ${request.profile} sandbox`,
        profile: request.profile,
        network: request.profile === 'workspace',
        release() {
          if (!done) released += 1;
          done = true;
          return Promise.resolve();
        },
      });
    },
  };
}

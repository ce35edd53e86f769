import type { ToolProgress } from '../../contract/tool.js';

/** Options for {@link createProgressReporter}. */
export type ProgressReporterOptions = {
  readonly report: (progress: ToolProgress) => void;
  /** Minimum interval between reports, in ms. */
  readonly intervalMs: number;
  /** How many recent lines each report carries. Default 5. */
  readonly lines?: number;
};

/** The data of a `bash-output` progress report. */
export type BashProgressData = {
  readonly recentLines: readonly string[];
  readonly totalBytes: number;
};

/** Turns a stream of output chunks into throttled progress reports of the recent lines. */
export type ProgressReporter = {
  readonly add: (chunk: Buffer) => void;
  /** Stops reporting (a last report is not sent: the result follows). */
  stop(): void;
};

const TAIL_CHARS = 4_096;

/**
 * Creates a reporter that sends `{ kind: 'bash-output' }` progress with the last few output lines
 * at most once per interval, and only when there is new output.
 */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const lineCount = options.lines ?? 5;
  let tail = '';
  let totalBytes = 0;
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const recentLines = tail
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-lineCount);
    const data: BashProgressData = { recentLines, totalBytes };
    options.report({ kind: 'bash-output', message: recentLines.join('\n'), data });
  };

  return {
    add(chunk) {
      totalBytes += chunk.length;
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
      dirty = true;
      timer ??= setTimeout(flush, options.intervalMs);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      dirty = false;
    },
  };
}

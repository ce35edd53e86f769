/** Prompts in the order the host sent them; iteration ends once the host's input ended and all were taken. */
export class PromptQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(item: T): void {
    this.#items.push(item);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  /** Prompts sent but not yet started. */
  size(): number {
    return this.#items.length;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const next = this.#items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}

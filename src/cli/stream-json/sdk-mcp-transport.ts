import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ControlChannel } from './control-channel.js';

/**
 * An MCP transport to a server that lives in the Agent SDK host's process (`createSdkMcpServer`):
 * each JSON-RPC message goes out as an `mcp_message` control request, and the server's reply to a
 * request comes back in that request's answer (`mcp_response`). Messages the server sends on its
 * own arrive as `mcp_message` requests from the host and are handed in with {@link receive}.
 */
export class SdkMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #channel: ControlChannel;
  readonly #server: string;
  readonly #closing = new AbortController();
  #closed = false;

  constructor(channel: ControlChannel, server: string) {
    this.#channel = channel;
    this.#server = server;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error(`the SDK MCP server ${this.#server} is closed`);
    const request = this.#channel.request(
      { subtype: 'mcp_message', server_name: this.#server, message },
      this.#closing.signal,
    );
    // The reply is delivered when it comes; send itself returns once the message is on its way.
    request.then(
      (answer) => {
        const reply = answer.mcp_response;
        if (reply !== undefined && reply !== null && typeof reply === 'object')
          this.onmessage?.(reply as JSONRPCMessage);
      },
      (error: unknown) => {
        if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  /** A message the host's server sent on its own (a notification or a request of the server's). */
  receive(message: JSONRPCMessage): void {
    if (!this.#closed) this.onmessage?.(message);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#closing.abort(new Error(`the SDK MCP server ${this.#server} was closed`));
    this.onclose?.();
    return Promise.resolve();
  }
}

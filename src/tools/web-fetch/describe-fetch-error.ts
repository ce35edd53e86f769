import { describeError } from '../../errors/toolplane-error.js';
import { NonPublicAddressError } from './request-page.js';

/** A failed fetch of `url`, explained for the model: refused address, cancelled, timed out, DNS, connection, TLS. */
export function describeFetchError(error: unknown, url: URL, context: { aborted: boolean; timeoutMs: number }): string {
  if (error instanceof NonPublicAddressError) {
    return (
      `Refused to fetch ${url.href}: ${error.message}. WebFetch only connects to public addresses; ` +
      'the person can allow an internal host in the session settings.'
    );
  }
  if (context.aborted) return `The fetch of ${url.href} was cancelled.`;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ABORT_ERR') {
    return `The fetch of ${url.href} timed out after ${context.timeoutMs} ms. The site may be slow or down; try again later or another source.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') {
    return `The host ${url.hostname} could not be resolved. Check the spelling of the URL.`;
  }
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return `Could not connect to ${url.host} (${code}). The site may be down or not serve HTTPS.`;
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL')) {
    return `${url.host} did not complete an HTTPS handshake (${code}); it may not serve HTTPS on this port.`;
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return `The TLS certificate of ${url.host} could not be verified (${code}); the page was not fetched.`;
  }
  return `Could not fetch ${url.href}: ${describeError(error)}.`;
}

const MAX_URL_LENGTH = 2_000;

/** Why WebFetch refuses `raw` (too long, not a URL, not http(s), credentials, no host), for the model; none when it is fine. */
export function checkUrl(raw: string): string | undefined {
  if (raw.length > MAX_URL_LENGTH)
    return `The URL is ${raw.length} characters long; at most ${MAX_URL_LENGTH} are accepted.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${JSON.stringify(raw)} is not a valid URL. Give a complete URL such as https://example.com/page.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'URLs with a user name or password cannot be fetched. Remove the credentials from the URL.';
  }
  if (url.hostname === '') return 'The URL has no host.';
  return undefined;
}

/** `http:` becomes `https:`; other URLs are returned as they are. */
export function upgrade(url: URL): URL {
  if (url.protocol !== 'http:') return url;
  const upgraded = new URL(url.href);
  upgraded.protocol = 'https:';
  return upgraded;
}

/** Same host, allowing a `www.` prefix to come or go; a credentialed target never counts. */
export function isSameSite(from: URL, to: URL): boolean {
  if (to.username !== '' || to.password !== '') return false;
  if (to.protocol !== 'https:' && to.protocol !== 'http:') return false;
  const strip = (host: string) => host.toLowerCase().replace(/^www\./, '');
  const port = (url: URL) => (url.port === '' || (url.protocol === 'http:' && url.port === '80') ? '' : url.port);
  return strip(from.hostname) === strip(to.hostname) && port(from) === port(upgrade(to));
}

/**
 * Removes the session's own credentials (model-provider keys, the telemetry exporters' headers)
 * from an environment before it is handed to a child process (Bash commands, hook commands, MCP
 * servers), so a command the model wrote cannot read or exfiltrate the keys the session runs on.
 */

/** Exact variable names that hold model-provider credentials. */
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'AZURE_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'VERTEX_API_KEY',
  'MISTRAL_API_KEY',
  'COHERE_API_KEY',
  'CO_API_KEY',
  'GROQ_API_KEY',
  'TOGETHER_API_KEY',
  'FIREWORKS_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
  'OPENROUTER_API_KEY',
  'PERPLEXITY_API_KEY',
  'REPLICATE_API_TOKEN',
  'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN',
  'HUGGINGFACEHUB_API_TOKEN',
  'VOYAGE_API_KEY',
  'AWS_BEARER_TOKEN_BEDROCK',
  'CEREBRAS_API_KEY',
  'MOONSHOT_API_KEY',
  'DASHSCOPE_API_KEY',
  'OLLAMA_API_KEY',
]);

/** Provider prefixes whose secret-looking variables (…_KEY, …_TOKEN, …_SECRET) are removed too. */
const PROVIDER_PREFIX =
  /^(ANTHROPIC|CLAUDE|OPENAI|AZURE_OPENAI|GEMINI|GOOGLE_GENERATIVE_AI|VERTEX|MISTRAL|COHERE|GROQ|TOGETHER|FIREWORKS|DEEPSEEK|XAI|OPENROUTER|PERPLEXITY|REPLICATE|VOYAGE|CEREBRAS|MOONSHOT|DASHSCOPE|OLLAMA|TOOLPLANE)_/;
const SECRET_SUFFIX = /(KEY|TOKEN|SECRET|PASSWORD)$/;

/**
 * The telemetry exporters' headers (`OTEL_EXPORTER_OTLP_HEADERS` and its per-signal forms): they
 * carry the collector's credentials (`Authorization=Bearer …`, an API key).
 */
const TELEMETRY_HEADERS = /^OTEL_EXPORTER_OTLP_(?:(?:TRACES|METRICS|LOGS)_)?HEADERS$/;

/**
 * Whether a variable name holds a credential the session itself runs on (case-insensitive): a
 * model provider's key or token, or the telemetry exporters' headers.
 */
export function isModelCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    CREDENTIAL_NAMES.has(upper) ||
    (PROVIDER_PREFIX.test(upper) && SECRET_SUFFIX.test(upper)) ||
    TELEMETRY_HEADERS.test(upper)
  );
}

/**
 * Returns a copy of `env` without model-provider credentials (API keys, auth tokens). The input is
 * never modified; `undefined` values are dropped. Non-secret settings such as `ANTHROPIC_BASE_URL`
 * are kept.
 */
export function scrubModelCredentials(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const clean: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isModelCredentialName(name)) continue;
    clean[name] = value;
  }
  return clean;
}

/**
 * Removes model-provider credentials from an environment before it is handed to a child process
 * (Bash commands, hook commands), so a command the model wrote cannot read or exfiltrate the keys
 * the session itself runs on.
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

/** Whether a variable name holds a model-provider credential (case-insensitive). */
export function isModelCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  return CREDENTIAL_NAMES.has(upper) || (PROVIDER_PREFIX.test(upper) && SECRET_SUFFIX.test(upper));
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

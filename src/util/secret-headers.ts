// Headers whose values are secret in every report, recording and console line of the harness: credentials, and the
// organization ids that name an account. One list: the run's profile, the proxy and the match allow-list read it.

export const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'service-organization', 'openai-organization', 'cookie', 'set-cookie', 'x-api-key', 'api-key'] as const;

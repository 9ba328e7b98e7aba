// Plugins as a remote host serves them: one per auth variant the spec describes for remote plugins (user_http,
// service_http, oauth), each on a host name of its own under the reserved .test domain (RFC 6761), over HTTPS
// with a certificate made at start-up. Nothing outside the run that starts them can reach them: the names
// resolve only through the lookup the run's own connections use, and the certificate is trusted only there.
// A local plugin may only use auth `none`, so this is how the default run exercises the other variants' rules
// with the plugin rules judging host names exactly as for a real remote plugin.

export const REMOTE_PLUGIN_VARIANTS = ['user_http', 'service_http', 'oauth'] as const;
export type RemotePluginVariant = (typeof REMOTE_PLUGIN_VARIANTS)[number];

/** `oauth.plugins.reference.test`, …: names no resolver answers, so nothing but the run's own lookup reaches them. */
export const REMOTE_PLUGIN_DOMAIN = 'plugins.reference.test';
export const hostOf = (variant: RemotePluginVariant): string => `${variant.replace('_', '-')}.${REMOTE_PLUGIN_DOMAIN}`;

/** The variant a request's Host header names, when it is one of the remote plugin hosts. */
export function remoteVariantOf(host: string | undefined): RemotePluginVariant | undefined {
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '');
  return REMOTE_PLUGIN_VARIANTS.find((v) => hostOf(v) === name);
}

/** The manifest's auth object for a variant, with URLs on the plugin's own origin. */
export function authOf(variant: RemotePluginVariant, base: string): Record<string, unknown> {
  switch (variant) {
    case 'user_http':
      return { type: 'user_http', authorization_type: 'bearer', instructions: 'Paste the API token from your TODO account settings.' };
    case 'service_http':
      return { type: 'service_http', authorization_type: 'bearer', verification_tokens: { openai: 'reference-service-verification-token' }, instructions: '' };
    case 'oauth':
      return {
        type: 'oauth', instructions: '', client_url: `${base}/oauth/authorize`, scope: 'todos', authorization_url: `${base}/oauth/token`,
        authorization_content_type: 'application/json', verification_tokens: { openai: 'reference-oauth-verification-token' },
      };
  }
}

/** What a run needs to reach the remote plugins: their origins and the certificate to trust (see remote-connect.ts). */
export interface RemotePlugins {
  /** https://oauth.plugins.reference.test:PORT, … per variant. */
  urls: Readonly<Record<RemotePluginVariant, string>>;
  /** PEM of the certificate the hosts present. */
  cert: string;
}

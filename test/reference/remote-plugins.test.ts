// The embedded target's remote plugins: HTTPS on names only the run resolves, with a certificate made at start
// and trusted by that run only.
import { X509Certificate } from 'node:crypto';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { hostOf, REMOTE_PLUGIN_VARIANTS } from '../../src/reference/remote-plugins.ts';
import { remoteConnect } from '../../src/reference/remote-connect.ts';
import { selfSignedCertificate } from '../../src/util/self-signed.ts';

describe('remote plugins of the embedded target', async () => {
  const ref = await startReferenceServer({ remotePlugins: true });
  const plugins = ref.remotePlugins!;
  const agent = new Agent({ connect: remoteConnect(plugins) as object });
  afterAll(async () => { await agent.close(); await ref.close(); });

  it('serves one manifest per auth variant, on its own HTTPS origin, with URLs on that origin', async () => {
    for (const variant of REMOTE_PLUGIN_VARIANTS) {
      const url = plugins.urls[variant];
      expect(new URL(url).hostname).toBe(hostOf(variant));
      const res = await request(`${url}/.well-known/ai-plugin.json`, { dispatcher: agent });
      expect(res.statusCode).toBe(200);
      const manifest = (await res.body.json()) as { auth: { type: string; client_url?: string }; api: { url: string }; logo_url: string };
      expect(manifest.auth.type).toBe(variant);
      expect(manifest.api.url).toBe(`${url}/openapi.yaml`);
      expect(manifest.logo_url.startsWith(url)).toBe(true);
      if (variant === 'oauth') expect(manifest.auth.client_url).toBe(`${url}/oauth/authorize`);
      const doc = await request(`${url}/openapi.yaml`, { dispatcher: agent });
      expect(await doc.body.text()).toContain(`url: ${url}`);
    }
    // The local plugin keeps auth none.
    const local = await request(`${ref.pluginUrl}/.well-known/ai-plugin.json`);
    expect(((await local.body.json()) as { auth: { type: string } }).auth.type).toBe('none');
  });

  it('is reachable only through the run\'s own lookup and trust', async () => {
    const url = `${plugins.urls.oauth}/.well-known/ai-plugin.json`;
    await expect(request(url)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const resolvesOnly = new Agent({ connect: { lookup: remoteConnect(plugins).lookup } as object });
    try {
      await expect(request(url, { dispatcher: resolvesOnly })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    } finally {
      await resolvesOnly.close();
    }
  });
});

describe('selfSignedCertificate', () => {
  it('covers exactly the names asked for, for a bounded time, and verifies with its own key', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const c = selfSignedCertificate(['a.example.test', 'b.example.test'], { days: 2, now });
    const x = new X509Certificate(c.cert);
    expect(x.subjectAltName).toBe('DNS:a.example.test, DNS:b.example.test');
    expect(x.checkHost('a.example.test')).toBe('a.example.test');
    expect(x.checkHost('c.example.test')).toBeUndefined();
    expect(new Date(x.validFrom).getTime()).toBe(now.getTime() - 3_600_000);
    expect(new Date(x.validTo).getTime()).toBe(now.getTime() + 2 * 86_400_000);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.fingerprint256).toBe(c.fingerprint256);
    expect(() => selfSignedCertificate([])).toThrow(RangeError);
  });
});

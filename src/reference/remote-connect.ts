// How one run reaches the embedded target's remote plugins (remote-plugins.ts): its connections resolve their
// names to 127.0.0.1 and trust their certificate; every other host resolves and verifies as usual. Apart from
// remote-plugins.ts, whose types the package exports, so that a user's declarations need no Node types.

import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import tls from 'node:tls';
import { remoteVariantOf, type RemotePlugins } from './remote-plugins.ts';

/** Connection options for undici: the run's lookup and trust, for these hosts only (other hosts as usual). */
export interface RemoteConnect {
  lookup: (hostname: string, options: LookupOneOptions & { all?: boolean }, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => void;
  ca: string[];
}

export function remoteConnect(plugins: RemotePlugins): RemoteConnect {
  return {
    lookup(hostname, options, callback) {
      if (remoteVariantOf(hostname) === undefined) {
        dnsLookup(hostname, options as LookupOneOptions, callback as never);
        return;
      }
      if (options?.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    },
    // The public roots stay trusted: only this certificate is added, and only for this run's connections.
    ca: [...tls.rootCertificates, plugins.cert],
  };
}

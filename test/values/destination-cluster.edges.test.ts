import { DestinationCluster } from '../../src/values/destination-cluster';

const NOT_A_SERVER = 'it must be the http(s) URL of a Kubernetes API server registered in Argo CD. Fix: copy the server URL from `argocd cluster list`';

describe('DestinationCluster.fromServer refuses what is not a string, even when it prints as a URL', () => {
  test('fails when given a URL object, which JSON shows as its text', () => {
    // GIVEN a WHATWG URL instead of its string (from untyped code)
    const url = new URL('https://prod-eu.acme.internal:6443');
    // WHEN a cluster is made from it THEN it is refused: Argo CD needs the exact string
    expect(() => DestinationCluster.fromServer(url as never)).toThrow(`[SAFE-003] DestinationCluster.fromServer: url is "https://prod-eu.acme.internal:6443/"; ${NOT_A_SERVER}`);
  });

  test('fails when given an object whose toString is a URL', () => {
    const server = { toString: () => 'https://prod-eu.acme.internal' };
    expect(() => DestinationCluster.fromServer(server as never)).toThrow(`[SAFE-003] DestinationCluster.fromServer: url is {}; ${NOT_A_SERVER}`);
  });

  test('fails when the URL has a trailing space, with the whole message', () => {
    expect(() => DestinationCluster.fromServer('https://prod-eu.acme.internal ')).toThrow(`[SAFE-003] DestinationCluster.fromServer: url is "https://prod-eu.acme.internal "; ${NOT_A_SERVER}`);
  });
});

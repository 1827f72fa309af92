import { DestinationCluster } from '../../src/values/destination-cluster';

describe('DestinationCluster', () => {
  test('IN_CLUSTER is the in-cluster API server, by URL', () => {
    // GIVEN / WHEN the in-cluster destination is read
    const cluster = DestinationCluster.IN_CLUSTER;
    // THEN it names the server and no cluster name
    expect(cluster.server).toBe('https://kubernetes.default.svc');
    expect(cluster.name).toBeUndefined();
  });

  describe('fromServer', () => {
    test.each(['https://prod-eu.acme.internal:6443', 'http://10.0.0.1:8080', 'https://kubernetes.default.svc'])('accepts %p', (url) => {
      // GIVEN an http(s) API server URL
      // WHEN a destination is made
      const cluster = DestinationCluster.fromServer(url);
      // THEN it is kept as the server, with no name
      expect(cluster.server).toBe(url);
      expect(cluster.name).toBeUndefined();
    });

    test.each(['', 'prod-eu.acme.internal', 'ftp://prod-eu.acme.internal', 'https://', 'https://prod eu', ' https://prod-eu.acme.internal'])(
      'fails when the URL is %p', (url) => {
        // GIVEN something that is not an http(s) URL
        // WHEN a destination is made
        const make = () => DestinationCluster.fromServer(url);
        // THEN it is refused with the URL code
        expect(make).toThrow(/\[SAFE-003\]/);
        expect(make).toThrow(/DestinationCluster\.fromServer: url/);
      });
  });

  describe('fromName', () => {
    test('keeps the registered name, with no server', () => {
      // GIVEN a registered cluster name
      // WHEN a destination is made
      const cluster = DestinationCluster.fromName('prod-eu');
      // THEN it is kept as the name
      expect(cluster.name).toBe('prod-eu');
      expect(cluster.server).toBeUndefined();
    });

    // ' prod' and 'prod ' never match a cluster: Argo CD compares names exactly (ApplicationSetCluster refused them already).
    test.each(['', '   ', '*', 'prod-*', ' prod', 'prod '])('fails when the name is %p', (name) => {
      // GIVEN an empty or wildcard name
      // WHEN a destination is made
      const make = () => DestinationCluster.fromName(name);
      // THEN it is refused with the name code
      expect(make).toThrow(/\[SAFE-001\]/);
      expect(make).toThrow(/DestinationCluster\.fromName: name/);
    });
  });
});

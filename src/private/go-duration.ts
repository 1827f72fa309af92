import { Duration } from 'cdk8s';

/** A whole number of seconds as a Go duration string: 180 s is `3m`, 90 s is `1m30s`. */
export function goDuration(d: Duration): string {
  let seconds = d.toSeconds();
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const text = `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds ? `${seconds}s` : ''}`;
  return text || '0s';
}

import { buildPlatformApp } from './app';

// Writes dist-platform/: its own folder, because a synth replaces its outdir as a whole and the checkout example owns dist/.
buildPlatformApp({ outdir: 'dist-platform' }).synth();

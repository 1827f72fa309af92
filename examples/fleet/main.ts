import { buildFleet } from './app';
import { SERVICES } from './services';

// Writes dist-fleet/: its own folder, because a synth replaces its outdir as a whole and the checkout example owns dist/.
buildFleet(SERVICES, { outdir: 'dist-fleet' }).synth();

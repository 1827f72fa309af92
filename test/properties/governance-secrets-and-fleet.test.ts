/**
 * Property tests of SafeProject with its AppOfApps root and HumanAccess (src/governance), ExternalSecret and
 * SecretStore (src/secrets), and SafeApplicationSet (src/fleet).
 *
 * The properties live one construct a file (`*.properties.ts`). Two test files run them, each in one Jest module
 * registry, so that the tightened CRD validators are compiled and src is loaded once per file (about 3 s of CPU each),
 * and so that the two halves take about as long on the two workers of a 2-CPU CI machine.
 */
import './safe-project.properties';
import './human-access.properties';
import './external-secret.properties';
import './safe-application-set.properties';

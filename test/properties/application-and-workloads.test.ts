/**
 * Property tests of SafeApplication (src/application) and of what it deploys (src/workloads): HpaManagedDeployment,
 * MigrationHook, KnownFieldOwner.
 *
 * The properties live one construct a file (`*.properties.ts`). Two test files run them, each in one Jest module
 * registry, so that the tightened CRD validators are compiled and src is loaded once per file (about 3 s of CPU each),
 * and so that the two halves take about as long on the two workers of a 2-CPU CI machine.
 */
import './safe-application.properties';
import './hpa-managed-deployment.properties';
import './migration-hook.properties';
import './known-field-owner.properties';

import { writeFileSync } from 'fs';
import { join } from 'path';
import { renderRulesMarkdown } from '../src/rules/docs';
import { ALL_RULES } from '../src/rules/registry';

writeFileSync(join(__dirname, '..', 'RULES.md'), renderRulesMarkdown(ALL_RULES));

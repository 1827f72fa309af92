import { buildCheckoutApp } from './app';

buildCheckoutApp('dist').synth();

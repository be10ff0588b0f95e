import { scenarios } from './stopMidCampaign.scenarios';

// One part of stopMidCampaign.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('postgres', 'first');

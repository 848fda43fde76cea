export { asciiDigits } from './digits.js';
export { comparisonOf, fieldLabel, levelLabel, recordFields, snake } from './fields.js';
export { msg } from './msg.js';
export { homeFor, screensFor, staffScreens } from './nav.js';
export { problemFields, problemSentence } from './problems.js';
export { type Verdict, verdictForKey } from './review-keys.js';
export { roleLabel, roles } from './roles.js';
export { type WaterfallBar, waterfallBars } from './waterfall.js';
export { apiWord } from './words.js';

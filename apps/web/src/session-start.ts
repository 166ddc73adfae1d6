import { sendEarlyRefresh } from './lib/session-refresh';

// The page's first script (index.html), a few hundred bytes: the session's refresh call leaves
// while React and the app's code are still on their way, and main.tsx's restore takes its answer.
sendEarlyRefresh();

// A library made by an older Tongwen must be re-fingerprinted before it can be checked against. At
// start-up (and when Settings opens another library) `library_status` says so, and the update runs at
// once behind the progress strip; a command that fails with kind `library_needs_upgrade` offers the same
// step as a button in the error banner.

import * as api from '../../api.js';
import { t } from '../../i18n.js';
import { setErrorAction, showStatus } from '../shell/notices.js';
import { runTask } from '../shell/task.js';

/** Offers the update in the banner of a `library_needs_upgrade` error; `after()` runs once it is done. */
export function initUpgrade({ after }) {
  setErrorAction('library_needs_upgrade', {
    labelKey: 'error.updateLibrary',
    run: () => upgradeLibrary({ after }),
  });
}

/**
 * Asks `library_status` and updates the library when it needs it. Resolves to true when the library can
 * be used as it is or was updated; a failure of the status itself is thrown (the caller shows it).
 */
export async function upgradeIfNeeded({ after } = {}) {
  const status = await api.libraryStatus();
  if (!status?.needs_upgrade) return true;
  return upgradeLibrary({ count: Number(status.stale_paragraphs) || 0, after });
}

/** Runs `library_upgrade` with progress. Resolves to true when the library is up to date. */
export async function upgradeLibrary({ count = 0, after } = {}) {
  // Until it is listed again, the library must not look empty (see layout.css).
  document.body.classList.add('library-upgrading');
  let status;
  try {
    status = await runTask('task.upgrading', (onProgress) => api.libraryUpgrade(onProgress), { count });
  } finally {
    document.body.classList.remove('library-upgrading');
  }
  if (!status) return false; // cancelled or failed: already said
  showStatus(t('status.upgraded'));
  await after?.();
  return !status.needs_upgrade;
}

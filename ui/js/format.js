// Numbers, ratios, dates and paths as the interface shows them, in the current language's locale.

import { locale } from './i18n.js';

/** 0.375 → "37.5%" (ratios are in [0, 1]). */
export function percent(ratio, digits = 1) {
  if (!Number.isFinite(ratio)) return '–';
  return `${(ratio * 100).toFixed(digits)}%`;
}

export function integer(n) {
  if (!Number.isFinite(n)) return '–';
  return new Intl.NumberFormat(locale()).format(n);
}

/** Unix seconds → a short local date and time. */
export function dateTime(unixSeconds) {
  if (!Number.isFinite(unixSeconds)) return '–';
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(unixSeconds * 1000),
  );
}

export function bytes(n) {
  if (!Number.isFinite(n)) return '–';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** The last component of a path, for either separator (paths may come from Windows). */
export function basename(path) {
  const parts = String(path ?? '').split(/[\\/]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : String(path ?? '');
}

/** The file name without its extension. */
export function stem(path) {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The folder part of a path (without the trailing separator), "" when there is none. */
export function dirname(path) {
  const s = String(path ?? '');
  const cut = Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\'));
  return cut > 0 ? s.slice(0, cut) : '';
}

/** "zh" when at least a third of the text (spaces aside) is Han characters, otherwise "en". */
export function guessLang(text) {
  const s = String(text ?? '');
  const han = (s.match(/\p{Script=Han}/gu) ?? []).length;
  return han > 0 && han * 3 >= s.replace(/\s/g, '').length ? 'zh' : 'en';
}

/** The separator a path uses ("\\" for Windows paths). */
export function separatorOf(path) {
  const s = String(path ?? '');
  return s.includes('\\') && !s.includes('/') ? '\\' : '/';
}

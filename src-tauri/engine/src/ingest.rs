//! The write path: from files on disk to documents in the library. Files are read and fingerprinted in
//! parallel (rayon), one task each; the single writer stores each batch of documents in one transaction
//! as soon as its files are ready (a failed batch again document by document), in input order, so ids
//! are deterministic and an interrupted run leaves only whole documents.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use xxhash_rust::xxh3::Xxh3;

use crate::error::{Error, Result};
use crate::extract::{self, ExtractOptions, Extracted};
use crate::fingerprint::Fingerprinter;
use crate::library::{AddOutcome, NewDocument, NewParagraph, Store};

/// Files written in one transaction (see [`batches`]).
const BATCH: usize = 64;

/// The batches `n` files are written in, as ranges. Up to [`BATCH`] files, one batch (one
/// transaction); more, batches of [`BATCH`] files, then, for the last `2 × BATCH` or fewer, half of what
/// is left each time, down to [`LAST_BATCH`]. A batch is written while the next files are prepared, and
/// the last one with nothing beside it: halving makes that last write a few files', where a whole batch
/// left every other core idle while it was written.
fn batches(n: usize) -> Vec<std::ops::Range<usize>> {
    if n <= BATCH {
        return (n > 0).then_some(0..n).into_iter().collect();
    }
    let mut out = Vec::new();
    let mut start = 0;
    while start < n {
        let left = n - start;
        let size = if left >= 2 * BATCH {
            BATCH
        } else if left > LAST_BATCH {
            left.div_ceil(2)
        } else {
            left
        };
        out.push(start..start + size);
        start += size;
    }
    out
}

/// The most files the last batch of a large import holds (see [`batches`]).
const LAST_BATCH: usize = 4;

/// Title of a document: its file name without the extension.
pub fn title_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Fingerprint an extracted document into a document ready to store (its paragraphs' texts move into it).
pub fn prepare(
    path: &Path,
    bytes: u64,
    extracted: Extracted,
    fingerprinter: &Fingerprinter,
) -> NewDocument {
    // The content hash is xxh3-128 of the paragraphs, each followed by a line feed, fed as they come.
    let mut content = Xxh3::new();
    let paragraphs = extracted
        .paragraphs
        .into_iter()
        .map(|b| {
            content.update(b.text.as_bytes());
            content.update(b"\n");
            let print = fingerprinter.paragraph(&b.text);
            NewParagraph {
                text: b.text,
                kind: b.kind,
                level: b.level,
                chars: print.chars,
                simhash: print.simhash,
                shingles: print.index_keys(),
            }
        })
        .collect();
    NewDocument {
        title: title_of(path),
        path: path.display().to_string(),
        format: extracted.format,
        bytes,
        content_hash: format!("{:032x}", content.digest128()),
        paragraphs,
        meta: Default::default(),
    }
}

/// Read and fingerprint one file.
pub fn prepare_file(
    path: &Path,
    options: &ExtractOptions,
    fingerprinter: &Fingerprinter,
) -> Result<NewDocument> {
    let (extracted, bytes) = extract::extract_file_sized(path, options)?;
    Ok(prepare(path, bytes, extracted, fingerprinter))
}

/// Progress of an import, reported after each file.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'p> {
    pub done: usize,
    pub total: usize,
    pub path: &'p Path,
}

/// Add files to the library: read and fingerprint in parallel, write each batch of documents in one
/// transaction while the next files are being prepared. Returns each file's outcome in input order.
/// Stops early (between batches) when `cancel` is set: files not started are skipped (the batch being
/// waited for is written with the files already read) and are not in the result.
pub fn add_files(
    library: &mut dyn Store,
    files: &[PathBuf],
    options: &ExtractOptions,
    fingerprinter: &Fingerprinter,
    cancel: &AtomicBool,
    progress: impl FnMut(Progress<'_>),
) -> Vec<(PathBuf, Result<AddOutcome>)> {
    add_files_with(files, options, fingerprinter, cancel, progress, |docs| {
        library.add_batch(docs)
    })
}

/// [`add_files`] with the write step supplied by the caller (given a batch of documents to add in one
/// transaction, in order), so a shared library is locked only while a batch is written, never while files
/// are read and fingerprinted. When a batch fails, its documents are written one by one, so one bad
/// document (or a full disk) costs only itself and is reported with its own error.
///
/// Files are prepared one task each, in order, on the calling thread's pool (the global one when it is
/// in none), at most [`AHEAD`] files past the batch being written; the calling thread writes each batch
/// as soon as its files are ready and, while it waits, prepares the files still in its own queue when
/// it is one of the pool's threads (else it sleeps). No thread waits for a batch before preparing the
/// next files. A panic in `write` or `progress` stops the files not yet started.
pub fn add_files_with(
    files: &[PathBuf],
    options: &ExtractOptions,
    fingerprinter: &Fingerprinter,
    cancel: &AtomicBool,
    mut progress: impl FnMut(Progress<'_>),
    mut write: impl FnMut(&[&NewDocument]) -> Result<Vec<AddOutcome>>,
) -> Vec<(PathBuf, Result<AddOutcome>)> {
    // Documents to fingerprint: the id table pays for itself (built now where it is not embedded).
    crate::text::word_ids();
    let ready = Ready::new();
    // Set when the writer leaves, normally or by a panic: files not started are then skipped.
    let stop = AtomicBool::new(false);
    let prepare = |i: usize| {
        let path = &files[i];
        let doc = if cancel.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            Err(Error::Cancelled)
        } else {
            // A panic in a reader costs its file, not the import (and never leaves the writer waiting).
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                prepare_file(path, options, fingerprinter)
            }))
            .unwrap_or(Err(Error::Internal("reading the file failed unexpectedly")))
        };
        ready.put(i, doc);
    };
    let mut out: Vec<(PathBuf, Result<AddOutcome>)> = Vec::with_capacity(files.len());
    rayon::in_place_scope_fifo(|scope| {
        let _stop = StopOnDrop(&stop);
        let mut spawned = 0;
        for range in batches(files.len()) {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            while spawned < (range.end + AHEAD).min(files.len()) {
                let i = spawned;
                scope.spawn_fifo(move |_| prepare(i));
                spawned += 1;
            }
            let docs = ready.take(range.clone());
            let chunk = &files[range];
            for (path, outcome) in chunk.iter().zip(write_batch(docs, &mut write)) {
                let Some(outcome) = outcome else { continue };
                out.push((path.clone(), outcome.map_err(|e| e.for_file(path))));
                progress(Progress {
                    done: out.len(),
                    total: files.len(),
                    path,
                });
            }
        }
    });
    out
}

/// Sets its flag when dropped (see [`add_files_with`]).
struct StopOnDrop<'f>(&'f AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Files prepared beyond the batch being written (see [`add_files_with`]): the next batch, so the
/// pool's threads have work while a batch is written.
const AHEAD: usize = BATCH;

/// Prepared documents, by file, until the writer takes them: a window from the first file not yet
/// written, at most `BATCH + AHEAD` files long (the batch being written and the files spawned past it),
/// whatever the number of files imported.
struct Ready {
    window: Mutex<Window>,
    filled: Condvar,
}

#[derive(Default)]
struct Window {
    /// The file of `docs[0]`.
    first: usize,
    docs: VecDeque<Option<Result<NewDocument>>>,
}

impl Ready {
    fn new() -> Ready {
        Ready {
            window: Mutex::new(Window::default()),
            filled: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Window> {
        // A slot is only ever filled or emptied whole, so a panic elsewhere leaves nothing half-written.
        self.window.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn put(&self, i: usize, doc: Result<NewDocument>) {
        let mut window = self.lock();
        // A file before the window was written already (it cannot be: the writer waits for each).
        if let Some(k) = i.checked_sub(window.first) {
            if window.docs.len() <= k {
                window.docs.resize_with(k + 1, || None);
            }
            window.docs[k] = Some(doc);
        }
        drop(window);
        self.filled.notify_one();
    }

    /// The documents of `range` (the files from the window's first), once every one is prepared. Until
    /// then the calling thread prepares the files still in its own queue (when it is one of the pool's
    /// threads: only what it spawned is there, never another's work) or sleeps until a file is put.
    fn take(&self, range: std::ops::Range<usize>) -> Vec<Result<NewDocument>> {
        debug_assert_eq!(self.lock().first, range.start, "batches are taken in order");
        let n = range.len();
        let ready = |w: &Window| {
            w.first == range.start
                && w.docs.len() >= n
                && w.docs.iter().take(n).all(Option::is_some)
        };
        loop {
            let mut window = self.lock();
            if ready(&window) {
                window.first = range.end;
                return window.docs.drain(..n).flatten().collect();
            }
            drop(window);
            if let Some(rayon::Yield::Executed) = rayon::yield_local() {
                continue;
            }
            // Nothing to run here: wait for a file to be put.
            window = self.lock();
            if !ready(&window) {
                drop(self.filled.wait(window));
            }
        }
    }
}

/// Write one batch's prepared documents; `None` for a file skipped by cancelling.
fn write_batch(
    docs: Vec<Result<NewDocument>>,
    write: &mut impl FnMut(&[&NewDocument]) -> Result<Vec<AddOutcome>>,
) -> Vec<Option<Result<AddOutcome>>> {
    let ready: Vec<&NewDocument> = docs.iter().filter_map(|d| d.as_ref().ok()).collect();
    let mut written = match write(&ready) {
        Ok(outcomes) if outcomes.len() == ready.len() => outcomes.into_iter().map(Ok).collect(),
        // Committed, but the outcomes cannot be matched to the documents: do not write them again.
        Ok(_) => ready
            .iter()
            .map(|_| {
                Err(Error::Internal(
                    "a batch write gave the wrong number of outcomes",
                ))
            })
            .collect(),
        Err(_) => ready
            .iter()
            .map(|d| {
                write(&[d]).and_then(|mut o| {
                    o.pop()
                        .ok_or(Error::Internal("a one-document batch gave no outcome"))
                })
            })
            .collect::<Vec<_>>(),
    }
    .into_iter();
    docs.into_iter()
        .map(|d| match d {
            Err(Error::Cancelled) => None,
            Err(e) => Some(Err(e)),
            Ok(_) => written.next(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::Library;

    fn files(dir: &Path, texts: &[(&str, &str)]) -> Vec<PathBuf> {
        texts
            .iter()
            .map(|(name, text)| {
                let p = dir.join(name);
                std::fs::write(&p, text).unwrap();
                p
            })
            .collect()
    }

    #[test]
    fn batches_cover_the_files_in_order_and_end_small() {
        assert!(batches(0).is_empty());
        let sizes = |n: usize| -> Vec<usize> { batches(n).iter().map(|r| r.len()).collect() };
        assert_eq!(sizes(1), [1]);
        assert_eq!(sizes(BATCH), [BATCH], "a small import is one transaction");
        assert_eq!(sizes(190), [64, 63, 32, 16, 8, 4, 3]);
        assert_eq!(sizes(65), [33, 16, 8, 4, 4]);
        for n in [65, 127, 128, 129, 300, 1000] {
            let b = batches(n);
            assert_eq!(b[0].start, 0);
            assert!(b.windows(2).all(|w| w[0].end == w[1].start), "{n}");
            assert_eq!(b.last().map(|r| r.end), Some(n), "{n}");
            assert!(b.last().is_some_and(|r| r.len() <= LAST_BATCH), "{n}");
            assert!(b.iter().all(|r| (1..=BATCH).contains(&r.len())), "{n}");
        }
    }

    #[test]
    fn prepared_document_keeps_texts_sizes_and_the_content_hash_definition() {
        let dir = tempfile::tempdir().unwrap();
        let paths = files(
            dir.path(),
            &[(
                "a.txt",
                "第一段：软件包维护者。\n\nSecond  paragraph,\twith tabs.\n",
            )],
        );
        let fp = Fingerprinter::new();
        let doc = prepare_file(&paths[0], &ExtractOptions::default(), &fp).unwrap();
        let texts: Vec<&str> = doc.paragraphs.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(
            texts,
            ["第一段：软件包维护者。", "Second  paragraph, with tabs."]
        );
        // The content hash is xxh3-128 of each paragraph followed by a line feed (stored libraries rely
        // on it to recognise a document added again).
        let joined: String = texts.iter().map(|t| format!("{t}\n")).collect();
        let expected = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(joined.as_bytes()));
        assert_eq!(doc.content_hash, expected);
        let chars: Vec<u64> = doc.paragraphs.iter().map(|p| p.chars).collect();
        assert_eq!(chars, [11, 25]);
        assert_eq!(doc.paragraphs[0].simhash, fp.simhash(texts[0]));
    }

    #[test]
    fn a_failing_batch_is_written_document_by_document() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = files(
            dir.path(),
            &[
                ("a.txt", "第一份文档的内容。\n"),
                ("bad.txt", "这份文档写入时会失败。\n"),
                ("empty.txt", ""),
                ("c.txt", "Third document, in English.\n"),
            ],
        );
        let f = Fingerprinter::new();
        let mut lib = Library::in_memory().unwrap();
        let mut calls = Vec::new();
        let mut seen = Vec::new();
        let out = add_files_with(
            &inputs,
            &ExtractOptions::default(),
            &f,
            &AtomicBool::new(false),
            |p| seen.push((p.done, p.total)),
            |docs| {
                calls.push(docs.len());
                if docs.iter().any(|d| d.title == "bad") {
                    return Err(Error::Internal("disk full"));
                }
                lib.add_batch(docs)
            },
        );
        // One batch of three readable files fails, then each is written alone.
        assert_eq!(calls, vec![3, 1, 1, 1]);
        let status: Vec<(String, bool)> =
            out.iter().map(|(p, r)| (title_of(p), r.is_ok())).collect();
        assert_eq!(
            status,
            vec![
                ("a".into(), true),
                ("bad".into(), false),
                ("empty".into(), false),
                ("c".into(), true)
            ]
        );
        // The write error names the file that was not added, with the library's cause.
        let failed = out[1].1.as_ref().unwrap_err();
        let said = failed.to_string();
        assert!(
            said.contains("bad.txt") && said.contains("disk full"),
            "{said}"
        );
        assert_eq!(failed.info().path, Some(inputs[1].display().to_string()));
        assert!(out[2].1.as_ref().unwrap_err().to_string().contains("empty"));
        assert_eq!(seen, vec![(1, 4), (2, 4), (3, 4), (4, 4)]);
        assert_eq!(lib.totals().unwrap().documents, 2);
    }

    #[test]
    fn a_batch_write_with_missing_outcomes_is_not_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = files(
            dir.path(),
            &[("a.txt", "第一份文档。\n"), ("b.txt", "第二份文档。\n")],
        );
        let mut calls = 0;
        let out = add_files_with(
            &inputs,
            &ExtractOptions::default(),
            &Fingerprinter::new(),
            &AtomicBool::new(false),
            |_| {},
            |_| {
                calls += 1;
                Ok(Vec::new())
            },
        );
        assert_eq!(calls, 1, "a committed batch is not retried");
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|(_, r)| matches!(
            r,
            Err(Error::NotAdded { source, .. }) if matches!(**source, Error::Internal(_))
        )));
    }

    /// `f` called from outside any pool (`None`) or from a thread of a pool of `n` threads.
    fn called_in<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> T {
        match threads {
            None => f(),
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
                .install(f),
        }
    }

    /// 150 small files, each saying its number, named `000.txt`…
    fn numbered_files(dir: &Path) -> Vec<PathBuf> {
        let names: Vec<String> = (0..150).map(|i| format!("{i:03}.txt")).collect();
        let texts: Vec<String> = (0..150)
            .map(|i| format!("第{i}份文档，内容各不相同：{}。\n", "文".repeat(i % 7 + 1)))
            .collect();
        let pairs: Vec<(&str, &str)> = names
            .iter()
            .zip(&texts)
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        files(dir, &pairs)
    }

    #[test]
    fn many_batches_keep_input_order_whichever_threads_prepare_them() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = numbered_files(dir.path());
        let f = Fingerprinter::new();
        // Called from outside any pool (the writer only waits), and from a pool's own thread with no
        // other thread (it prepares every file itself) and with another.
        for threads in [None, Some(1), Some(2)] {
            let mut lib = Library::in_memory().unwrap();
            let add = || {
                let cancel = AtomicBool::new(false);
                add_files(
                    &mut lib,
                    &inputs,
                    &ExtractOptions::default(),
                    &f,
                    &cancel,
                    |_| {},
                )
            };
            let out = called_in(threads, add);
            assert_eq!(out.len(), 150, "{threads:?}");
            let listed: Vec<String> = lib.list().unwrap().into_iter().map(|d| d.title).collect();
            let expected: Vec<String> = (0..150).map(|i| format!("{i:03}")).collect();
            assert_eq!(listed, expected, "{threads:?}");
            assert!(out
                .iter()
                .zip(&inputs)
                .all(|((p, r), input)| p == input && matches!(r, Ok(AddOutcome::Added(_)))));
        }
    }

    #[test]
    fn prepared_files_are_taken_in_order_and_not_kept_after() {
        let ready = Ready::new();
        let name = |d: Result<NewDocument>| match d {
            Err(Error::Internal(name)) => name,
            _ => "?",
        };
        // Put out of order, as threads finish them.
        ready.put(2, Err(Error::Internal("c")));
        ready.put(0, Err(Error::Internal("a")));
        ready.put(1, Err(Error::Internal("b")));
        let first: Vec<&str> = ready.take(0..2).into_iter().map(name).collect();
        assert_eq!(first, ["a", "b"]);
        let window = |r: &Ready| {
            let w = r.lock();
            (w.first, w.docs.len())
        };
        assert_eq!(window(&ready), (2, 1));
        let next: Vec<&str> = ready.take(2..3).into_iter().map(name).collect();
        assert_eq!(next, ["c"]);
        assert_eq!(window(&ready), (3, 0));
    }

    #[test]
    fn a_panic_in_the_writer_reaches_the_caller() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = numbered_files(dir.path());
        let f = Fingerprinter::new();
        // From outside any pool and from a pool's thread: the panic comes back, nothing waits forever.
        for threads in [None, Some(2)] {
            let add = || {
                std::panic::catch_unwind(AssertUnwindSafe(|| {
                    add_files_with(
                        &inputs,
                        &ExtractOptions::default(),
                        &f,
                        &AtomicBool::new(false),
                        |_| {},
                        |_| panic!("the disk went away"),
                    )
                }))
            };
            let out = called_in(threads, add);
            assert!(out.is_err(), "{threads:?}");
        }
    }

    #[test]
    fn cancelling_stops_after_the_batch_being_written() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = numbered_files(dir.path());
        let f = Fingerprinter::new();
        let mut lib = Library::in_memory().unwrap();
        let cancel = AtomicBool::new(false);
        let out = add_files(
            &mut lib,
            &inputs,
            &ExtractOptions::default(),
            &f,
            &cancel,
            |p| {
                if p.done == 1 {
                    cancel.store(true, Ordering::Relaxed);
                }
            },
        );
        // The first batch was committed whole; nothing after it is reported or stored.
        let first = batches(inputs.len())[0].len();
        assert_eq!(out.len(), first);
        assert!(out.iter().all(|(_, r)| r.is_ok()));
        assert_eq!(lib.totals().unwrap().documents, first as u64);
    }
}

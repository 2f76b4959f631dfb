//! Checkpoints of a batch ingest's write-ahead log on a thread and connection of their own.
//!
//! A library is written in WAL mode with `synchronous = NORMAL`: a commit appends to the log, and a
//! checkpoint copies the log into the database and makes it durable (two `fsync`s). SQLite checkpoints
//! on the writer's own thread once the log holds 1,000 pages (`PRAGMA wal_autocheckpoint`), so every so many batches
//! the writer stalls on the disk while the next batch, already prepared, waits for it. A
//! [`Checkpointer`] takes that off the writer: the writer's commit hook nudges it at the same point,
//! and it runs a passive checkpoint (which neither waits for nor blocks the writer or any reader) while
//! the writer goes on. Checkpoints happen as often as before, and nothing changes for durability: what a
//! checkpoint has not reached yet is in the log, as before, and the writer's connection still
//! checkpoints what is left when it closes.

use std::path::Path;
use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags};

/// A thread that checkpoints one library's log when nudged (see the module notes).
#[derive(Debug)]
pub struct Checkpointer {
    nudge: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// A checkpointer of the library at `path` (which exists), or `None` when its connection cannot be
    /// opened or no thread can be started (the writer then checkpoints itself, as SQLite does by
    /// default).
    pub fn start(path: &Path) -> Option<Checkpointer> {
        let (nudge, nudges) = channel::<()>();
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).ok()?;
        let thread = std::thread::Builder::new()
            .name("tongwen-checkpoint".into())
            .spawn(move || {
                while nudges.recv().is_ok() {
                    // Nudges that came meanwhile are served by this one checkpoint.
                    while nudges.try_recv().is_ok() {}
                    // A failed checkpoint leaves the log as it was: the next one, or the writer's
                    // close, copies it.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .ok()?;
        Some(Checkpointer {
            nudge: Some(nudge),
            thread: Some(thread),
        })
    }

    /// Install the writer's commit hook on `writer` in place of SQLite's automatic checkpoint: after each
    /// commit that leaves `pages` pages or more in the log (the automatic checkpoint's threshold), this
    /// checkpointer is asked for a checkpoint. Remove it ([`Checkpointer::unhook`]) before the
    /// checkpointer is dropped.
    pub fn hook(&self, writer: &mut Connection, pages: i32) -> rusqlite::Result<()> {
        let threshold = pages;
        let Some(nudge) = self.nudge.clone() else {
            return Ok(());
        };
        writer.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, pages: i32| {
            if pages >= threshold {
                let _ = nudge.send(());
            }
            Ok(())
        }))
    }

    /// Remove the commit hook from `writer` (its channel then closes when the checkpointer drops).
    pub fn unhook(writer: &mut Connection) {
        let none: Option<fn(&mut rusqlite::hooks::Wal, i32) -> rusqlite::Result<()>> = None;
        let _ = writer.wal_hook(none);
    }
}

impl Drop for Checkpointer {
    /// Stops the thread after the checkpoint it may be running (so that it never outlives the writer).
    fn drop(&mut self) {
        drop(self.nudge.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

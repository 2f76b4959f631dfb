//! The saved index: the in-memory [`Index`] written next to the library (`library.sqlite.index`) so that
//! opening a large library reads a few flat arrays instead of rebuilding the postings from every row.
//!
//! The file belongs to one [`Generation`] of one library (the random library id and the random change
//! stamp that every add, remove or re-fingerprint draws anew in its own transaction) and to one
//! fingerprint version;
//! a file for anything else, or one that is damaged (its xxh3-64 checksum fails), is ignored and rebuilt.
//! It is a cache: deleting it is always safe.
//!
//! Layout, little-endian: the 8-byte magic `TWINDEX1`, eight u64 header fields (format version,
//! fingerprint version, library id, generation, paragraphs, stored keys, buckets, bucket shift), then the
//! arrays simhash (u64), paragraph ids (i64), document ids (i64), bucket offsets (u32), keys (u32),
//! slots (u32), then the xxh3-64 (seed 0) of everything before it.
//!
//! The file is mapped, not read: its arrays are used where they lie in the page cache ([`Column`]), so
//! that opening a library of a million paragraphs costs the checksum and the slots' bounds check, not
//! allocating, zeroing and copying half a gigabyte. Tongwen never changes a saved file in place (a new
//! one is renamed over it), so a mapping always sees the file it checked.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use xxhash_rust::xxh3::Xxh3;

use super::column::Column;
use super::index::Index;
use crate::error::Result;
use crate::fingerprint::FINGERPRINT_VERSION;
use crate::library::{Generation, Store};

const MAGIC: &[u8; 8] = b"TWINDEX1";
const FORMAT_VERSION: u64 = 1;
const HEADER_FIELDS: usize = 8;

/// Read the index saved for `expected`, or `None` when the file is missing, stale or damaged.
pub fn read(path: &Path, expected: Generation) -> Option<Index> {
    if cfg!(target_endian = "big") {
        return None;
    }
    let file = File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let head = 8 + 8 * HEADER_FIELDS;
    if len < head as u64 + 8 {
        return None;
    }
    // SAFETY: Tongwen never changes a saved index in place (`write` renames a new file over it), so
    // the mapped bytes stay those checked below; a file damaged on disk fails its checksum.
    let map = Arc::new(unsafe { memmap2::MmapOptions::new().populate().map(&file) }.ok()?);
    if map.get(..8)? != MAGIC {
        return None;
    }
    let mut header = [0u64; HEADER_FIELDS];
    for (field, bytes) in header.iter_mut().zip(map.get(8..head)?.chunks_exact(8)) {
        *field = u64::from_le_bytes(bytes.try_into().ok()?);
    }
    let [format, fingerprint, library_id, generation, n, n_keys, n_buckets, shift] = header;
    if format != FORMAT_VERSION
        || fingerprint != FINGERPRINT_VERSION as u64
        || library_id != expected.library_id as u64
        || generation != expected.generation as u64
        || !(1..32).contains(&shift)
    {
        return None;
    }
    let expected_len = (head as u64)
        .checked_add(n.checked_mul(24)?)?
        .checked_add(n_buckets.checked_mul(4)?)?
        .checked_add(n_keys.checked_mul(8)?)?
        .checked_add(8)?;
    if len != expected_len || map.len() as u64 != len {
        return None;
    }
    let body = map.len() - 8;
    let sum = u64::from_le_bytes(map.get(body..)?.try_into().ok()?);
    if xxhash_rust::xxh3::xxh3_64(map.get(..body)?) != sum {
        return None;
    }
    let (n, n_keys, n_buckets) = (n as usize, n_keys as usize, n_buckets as usize);
    let mut at = head;
    let mut next = |count: usize, size: usize| {
        let start = at;
        at += count * size;
        start
    };
    let simhash = Column::mapped(&map, next(n, 8), n)?;
    let paragraph_ids = Column::mapped(&map, next(n, 8), n)?;
    let document_ids = Column::mapped(&map, next(n, 8), n)?;
    let buckets = Column::mapped(&map, next(n_buckets, 4), n_buckets)?;
    let keys = Column::mapped(&map, next(n_keys, 4), n_keys)?;
    let slots = Column::mapped(&map, next(n_keys, 4), n_keys)?;
    Index::from_parts(
        simhash,
        paragraph_ids,
        document_ids,
        buckets,
        shift as u32,
        keys,
        slots,
    )
}

impl Index {
    /// The index of a library: read from the saved index when it belongs to the library's current
    /// generation (see `index_file`), otherwise built from the stored prints and saved for next time.
    /// Failing to save (a read-only folder, a full disk) is not an error: the index is still returned,
    /// and the next open builds it again.
    pub fn open(library: &dyn Store) -> Result<Index> {
        let saved = library.index_path();
        if let Some(path) = &saved {
            if let Some(index) = read(path, library.generation()?) {
                return Ok(index);
            }
        }
        let (generation, flat) = library.load_flat_prints()?;
        let index = Index::from_flat(flat);
        if let Some(path) = &saved {
            let _ = write(path, &index, generation);
        }
        Ok(index)
    }
}

/// Save `index` for `generation`: written to a temporary sibling created exclusively (never through a
/// link planted there), then renamed over the old file, so readers see the old file or the new one.
pub fn write(path: &Path, index: &Index, generation: Generation) -> std::io::Result<()> {
    if cfg!(target_endian = "big") {
        return Ok(());
    }
    crate::files::write_atomically_with(path, |w| {
        let mut hash = Xxh3::new();
        let p = index.parts();
        let header: [u64; HEADER_FIELDS] = [
            FORMAT_VERSION,
            FINGERPRINT_VERSION as u64,
            generation.library_id as u64,
            generation.generation as u64,
            p.simhash.len() as u64,
            p.keys.len() as u64,
            p.buckets.len() as u64,
            u64::from(p.shift),
        ];
        write_bytes(w, &mut hash, MAGIC)?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(&header))?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(p.simhash))?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(p.paragraph_ids))?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(p.document_ids))?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(p.buckets))?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(p.keys))?;
        write_bytes(w, &mut hash, bytemuck::cast_slice(p.slots))?;
        // No fsync: a file torn by a crash fails its checksum and is rebuilt.
        w.write_all(&hash.digest().to_le_bytes())
    })
}

fn write_bytes(w: &mut dyn Write, hash: &mut Xxh3, bytes: &[u8]) -> std::io::Result<()> {
    hash.update(bytes);
    w.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::Fingerprinter;
    use crate::library::test_support::doc;
    use crate::library::{Generation, Library, Store};

    fn built(lib: &Library) -> Index {
        Index::from_flat(lib.load_flat_prints().unwrap().1)
    }

    #[test]
    fn saved_index_is_read_back_and_follows_every_change() {
        let f = Fingerprinter::new();
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("lib.sqlite");
        let mut lib = Library::open(&db).unwrap();
        let a = doc(
            "a",
            &[
                "软件包维护者应当定期检查错误跟踪系统中的报告。",
                "Maintainers should read the bug tracking system every week.",
            ],
            &f,
        );
        lib.add(&a).unwrap();
        let path = lib.index_path().unwrap();
        assert!(!path.exists());
        let first = Index::open(&lib).unwrap();
        assert!(path.exists(), "the index is saved on first open");
        assert_eq!(first.len(), 2);
        let generation = lib.generation().unwrap();
        assert_eq!(read(&path, generation), Some(built(&lib)));
        // Read back, the index lies in the mapped file.
        let mapped = Index::open(&lib).unwrap();
        assert_eq!(mapped, first);
        assert_eq!(mapped.mapped_arrays(), 6);
        assert_eq!(first.mapped_arrays(), 0, "built on first open");
        let before = built(&lib);

        // Adding a document bumps the generation: the saved index is stale and rebuilt.
        lib.add(&doc("b", &["第二份文档的唯一段落内容。"], &f))
            .unwrap();
        assert_ne!(lib.generation().unwrap(), generation);
        assert_eq!(read(&path, lib.generation().unwrap()), None);
        let second = Index::open(&lib).unwrap();
        assert_eq!(second.len(), 3);
        assert_eq!(second, built(&lib));
        // The new file replaced the old one, not its bytes: the index mapped before still reads the
        // library as it was.
        assert_eq!(mapped, before);
        assert_eq!(mapped.len(), 2);

        // So does removing one.
        let id = lib.list().unwrap()[0].id;
        lib.remove(&[id]).unwrap();
        let third = Index::open(&lib).unwrap();
        assert_eq!(third.len(), 1);
        assert_eq!(third, built(&lib));
        assert_eq!(read(&path, lib.generation().unwrap()), Some(third));
    }

    #[test]
    fn damaged_or_foreign_index_files_are_rebuilt() {
        let f = Fingerprinter::new();
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("lib.sqlite");
        let mut lib = Library::open(&db).unwrap();
        lib.add(&doc(
            "a",
            &["如果你想成为一名好的维护者，你应该定期检查错误报告。"],
            &f,
        ))
        .unwrap();
        let good = Index::open(&lib).unwrap();
        let path = lib.index_path().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let generation = lib.generation().unwrap();

        // One flipped bit in the arrays fails the checksum.
        let mut flipped = bytes.clone();
        let at = flipped.len() - 12;
        flipped[at] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert_eq!(read(&path, generation), None);
        assert_eq!(Index::open(&lib).unwrap(), good, "rebuilt from the library");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "and saved again");

        // A truncated file, garbage, an empty file.
        for damaged in [&bytes[..bytes.len() / 2], b"not an index".as_slice(), b""] {
            std::fs::write(&path, damaged).unwrap();
            assert_eq!(read(&path, generation), None);
            assert_eq!(Index::open(&lib).unwrap(), good);
        }

        // Another library's index, even one saved under this library's change stamp, is not this
        // library's; nor is this library's index under another stamp.
        let other_db = dir.path().join("other.sqlite");
        let mut other = Library::open(&other_db).unwrap();
        other
            .add(&doc("z", &["完全不同的另一段文字，毫无关系。"], &f))
            .unwrap();
        let theirs = other.generation().unwrap();
        let foreign = Generation {
            library_id: generation.library_id,
            generation: theirs.generation,
        };
        write(&other.index_path().unwrap(), &good, foreign).unwrap();
        assert_eq!(
            read(&other.index_path().unwrap(), foreign).as_ref(),
            Some(&good)
        );
        assert_eq!(read(&other.index_path().unwrap(), theirs), None);
        assert_eq!(Index::open(&other).unwrap(), built(&other));
        assert_ne!(built(&other), good);
        let restamped = Generation {
            library_id: generation.library_id,
            generation: generation.generation ^ 1,
        };
        write(&path, &good, restamped).unwrap();
        assert_eq!(read(&path, generation), None);
    }

    #[test]
    fn a_saved_index_with_an_impossible_bucket_shift_is_refused() {
        let f = Fingerprinter::new();
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(&dir.path().join("lib.sqlite")).unwrap();
        lib.add(&doc("a", &["软件包维护者应当定期检查错误报告。"], &f))
            .unwrap();
        let good = Index::open(&lib).unwrap();
        let p = good.parts();
        // Shift 32 with two bucket offsets would pass every other check (checksum included) and
        // make `postings` shift a u32 by 32.
        let keys = p.keys.to_vec();
        let forged = Index::from_parts(
            Column::Owned(p.simhash.to_vec()),
            Column::Owned(p.paragraph_ids.to_vec()),
            Column::Owned(p.document_ids.to_vec()),
            Column::Owned(vec![0, keys.len() as u32]),
            32,
            Column::Owned(keys.clone()),
            Column::Owned(p.slots.to_vec()),
        );
        assert_eq!(forged, None);
    }
}

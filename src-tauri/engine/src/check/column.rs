//! One array of the checking index ([`Column`]): a vector built in memory, or values lying in a mapped
//! saved index (`index_file`), used in place.

use std::marker::PhantomData;
use std::sync::Arc;

use bytemuck::Pod;

/// One array of an index: built in memory, or lying in a mapped saved index.
pub(crate) enum Column<T: Pod> {
    Owned(Vec<T>),
    Mapped {
        map: Arc<memmap2::Mmap>,
        start: usize,
        len: usize,
        of: PhantomData<T>,
    },
}

impl<T: Pod> Column<T> {
    /// `len` values from byte `start` of `map`, when they lie in it at their alignment.
    pub(crate) fn mapped(map: &Arc<memmap2::Mmap>, start: usize, len: usize) -> Option<Column<T>> {
        let end = len
            .checked_mul(std::mem::size_of::<T>())?
            .checked_add(start)?;
        bytemuck::try_cast_slice::<u8, T>(map.get(start..end)?).ok()?;
        Some(Column::Mapped {
            map: Arc::clone(map),
            start,
            len,
            of: PhantomData,
        })
    }
}

impl<T: Pod> Column<T> {
    #[cfg(test)]
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(self, Column::Mapped { .. })
    }
}

impl<T: Pod> std::ops::Deref for Column<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Column::Owned(v) => v,
            // Checked to fit and be aligned when mapped (`Column::mapped`).
            Column::Mapped {
                map, start, len, ..
            } => map
                .get(*start..*start + len * std::mem::size_of::<T>())
                .and_then(|bytes| bytemuck::try_cast_slice(bytes).ok())
                .unwrap_or(&[]),
        }
    }
}

impl<T: Pod> Default for Column<T> {
    fn default() -> Self {
        Column::Owned(Vec::new())
    }
}

impl<T: Pod + PartialEq> PartialEq for Column<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Pod + std::fmt::Debug> std::fmt::Debug for Column<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

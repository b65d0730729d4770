//! The one way the crate writes a file, with the rules of `tts_parity` (python/tts_parity/_output_files.py) and
//! the CLI's `--out`: an existing file is refused unless `force`; a folder, device, FIFO or socket is never
//! replaced; missing parent folders are created; the bytes go to a temporary file beside the target (the
//! `tempfile` crate), renamed onto it only when complete; on failure the temporary file is removed, or kept
//! as `<target>.partial` where the caller asks for it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::{Result, TraceError};

/// `path` once it may be written: not a folder, device, FIFO or socket; not an existing file unless `force`.
pub(crate) fn check_output_path(path: &Path, force: bool, what: &'static str) -> Result<()> {
    let text = path.as_os_str().to_string_lossy();
    if text.is_empty() {
        return Err(TraceError::Argument { call: what, argument: "path", expected: "a file path".into(), found: "\"\"".into() });
    }
    if text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) {
        return Err(TraceError::NotAFile { what, path: path.into(), problem: "ends with a path separator, so it names a folder (give a file path)" });
    }
    match fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(TraceError::io(what, path, e)),
        Ok(m) if m.is_dir() => Err(TraceError::NotAFile { what, path: path.into(), problem: "is a folder (give a file path)" }),
        Ok(m) if !m.is_file() => Err(TraceError::NotAFile {
            what,
            path: path.into(),
            problem: "is not a regular file (a device, FIFO or socket); give a file path",
        }),
        Ok(_) if !force => Err(TraceError::Exists { what, path: path.into() }),
        Ok(_) => Ok(()),
    }
}

/// A file written under a temporary name beside `path`, renamed onto it by `commit`.
pub(crate) struct AtomicFile {
    pub path: PathBuf,
    force: bool,
    what: &'static str,
    file: Option<NamedTempFile>,
}

impl AtomicFile {
    pub fn create(path: &Path, force: bool, what: &'static str) -> Result<Self> {
        check_output_path(path, force, what)?;
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&folder).map_err(|e| TraceError::io(what, &folder, e))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        with_default_permissions(&mut builder);
        let file = builder.tempfile_in(&folder).map_err(|e| TraceError::io(what, path, e))?;
        Ok(AtomicFile { path: path.into(), force, what, file: Some(file) })
    }

    pub fn is_open(&self) -> bool {
        self.file.is_some()
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        let (what, path) = (self.what, self.path.clone());
        let file = self.file.as_mut().expect("write to a committed AtomicFile");
        file.write_all(bytes).map_err(|e| TraceError::io(what, path, e))
    }

    /// Empties the file (the writer rewrites its lines when close() fills in the vocoder counts).
    pub fn truncate(&mut self) -> Result<()> {
        use std::io::Seek;
        let (what, path) = (self.what, self.path.clone());
        let file = self.file.as_mut().expect("truncate a committed AtomicFile");
        file.as_file().set_len(0).and_then(|_| file.rewind()).map_err(|e| TraceError::io(what, path, e))
    }

    /// Flushes and renames onto the target, checked again first (a file that appeared meanwhile is refused
    /// unless `force`: without it the rename itself refuses to replace one).
    pub fn commit(&mut self) -> Result<()> {
        check_output_path(&self.path, self.force, self.what)?;
        let file = self.file.as_ref().expect("commit twice");
        file.as_file().sync_all().map_err(|e| TraceError::io(self.what, &self.path, e))?;
        let file = self.file.take().expect("commit twice");
        let done = if self.force { file.persist(&self.path) } else { file.persist_noclobber(&self.path) };
        done.map(|_| ()).map_err(|e| {
            let refused = if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                TraceError::Exists { what: self.what, path: self.path.clone() }
            } else {
                TraceError::io(self.what, &self.path, e.error)
            };
            self.file = Some(e.file); // still there, for a `.partial`
            refused
        })
    }

    /// Renames the temporary file to `other` (replacing a previous `.partial`).
    pub fn keep_as(&mut self, other: &Path) -> Result<()> {
        match self.file.take() {
            Some(file) => file.persist(other).map(|_| ()).map_err(|e| TraceError::io(self.what, other, e.error)),
            None => Ok(()),
        }
    }

    /// Removes the temporary file: nothing appears under the target's name.
    pub fn discard(&mut self) {
        self.file.take();
    }
}

/// The mode open() gives a new file: 0666, less the umask (which the kernel applies at creation), rather
/// than tempfile's private 0600.
#[cfg(unix)]
fn with_default_permissions(builder: &mut tempfile::Builder) {
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(fs::Permissions::from_mode(0o666));
}

#[cfg(not(unix))]
fn with_default_permissions(_: &mut tempfile::Builder) {}

/// Writes `bytes` to `path` atomically.
pub(crate) fn write_atomically(bytes: &[u8], path: &Path, force: bool, what: &'static str) -> Result<()> {
    let mut file = AtomicFile::create(path, force, what)?;
    file.write_all(bytes)?;
    file.commit()
}

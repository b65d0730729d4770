//! The trace's audio as the studio reads it best: IEEE float32 (format tag 3), mono, the samples' bytes
//! bit-exact, with the 18-byte fmt chunk and the `fact` chunk a non-PCM WAVE needs: the 58-byte header that
//! electron/common/wav/encode-wav.ts and python/tts_parity/wav.py write, byte for byte. (`hound` writes 32-bit
//! float as WAVE_FORMAT_EXTENSIBLE with no `fact` chunk: readable, but not the same bytes as the other two
//! writers, and the header is a few lines.)

use std::path::Path;

use crate::error::{Result, TraceError};
use crate::output_file::write_atomically;

/// The bytes of a mono float32 WAV of `samples` at `sample_rate`.
pub fn wav_float32_bytes(samples: &[f32], sample_rate: u32) -> Vec<u8> {
    let data = samples.len() * 4;
    let mut out = Vec::with_capacity(58 + data);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&((4 + (8 + 18) + (8 + 4) + (8 + data)) as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&18u32.to_le_bytes());
    for field in [3u16, 1] {
        out.extend_from_slice(&field.to_le_bytes()); // IEEE float, one channel
    }
    out.extend_from_slice(&sample_rate.to_le_bytes());
    out.extend_from_slice(&(sample_rate * 4).to_le_bytes());
    for field in [4u16, 32, 0] {
        out.extend_from_slice(&field.to_le_bytes()); // block align, bits per sample, cbSize
    }
    out.extend_from_slice(b"fact");
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(data as u32).to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// Writes `samples` atomically to `path` as a mono float32 WAV (path first, as Python's write_wav_float32).
/// An existing file is refused unless `force`; missing folders are created.
pub fn write_wav_float32(path: impl AsRef<Path>, samples: &[f32], sample_rate: u32, force: bool) -> Result<()> {
    if sample_rate == 0 {
        return Err(TraceError::Argument {
            call: "write_wav_float32",
            argument: "sample_rate",
            expected: "an integer >= 1".into(),
            found: "0".into(),
        });
    }
    if samples.len() > (u32::MAX as usize - 58) / 4 {
        return Err(TraceError::Argument {
            call: "write_wav_float32",
            argument: "samples",
            expected: "at most 1073741809 samples (a WAV's sizes are 32-bit)".into(),
            found: format!("{} samples", samples.len()),
        });
    }
    write_atomically(&wav_float32_bytes(samples, sample_rate), path.as_ref(), force, "write_wav_float32: path")
}

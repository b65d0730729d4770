//! The float32 initializers of an ONNX file, read from its protobuf fields directly (ModelProto.graph = 7,
//! GraphProto.initializer = 5; TensorProto dims = 1, data_type = 2, float_data = 4, name = 8, raw_data = 9), as
//! python/tts_parity/demo/onnx_initializers.py does: the port reads the bundle's own weights, and a protobuf
//! crate with the ONNX schema compiled in would cost more build time than these few lines.

use std::collections::HashMap;

/// One float32 initializer: dims and row-major values.
pub struct Initializer {
    pub dims: Vec<usize>,
    pub values: Vec<f32>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    file: &'a str,
}

enum Field<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
    Other,
}

impl<'a> Reader<'a> {
    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at).ok_or_else(|| format!("{}: truncated protobuf varint at byte {}", self.file, self.at))?;
            self.at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(format!("{}: protobuf varint longer than 10 bytes at byte {}", self.file, self.at))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| format!("{}: a protobuf field runs past the end ({} bytes at byte {})", self.file, n, self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn next(&mut self) -> Result<Option<(u64, Field<'a>)>, String> {
        if self.at >= self.bytes.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let field = match key & 7 {
            0 => Field::Varint(self.varint()?),
            1 => {
                self.take(8)?;
                Field::Other
            }
            2 => {
                let n = self.varint()? as usize;
                Field::Bytes(self.take(n)?)
            }
            5 => Field::Fixed32(u32::from_le_bytes(self.take(4)?.try_into().unwrap())),
            wire => return Err(format!("{}: protobuf wire type {wire} is not in an ONNX model", self.file)),
        };
        Ok(Some((key >> 3, field)))
    }
}

fn fields<'a>(bytes: &'a [u8], file: &'a str, mut each: impl FnMut(u64, Field<'a>) -> Result<(), String>) -> Result<(), String> {
    let mut r = Reader { bytes, at: 0, file };
    while let Some((number, field)) = r.next()? {
        each(number, field)?;
    }
    Ok(())
}

fn tensor(bytes: &[u8], file: &str) -> Result<Option<(String, Initializer)>, String> {
    let (mut name, mut dims, mut kind, mut raw, mut floats) = (String::new(), vec![], 0u64, None, vec![]);
    fields(bytes, file, |number, field| {
        match (number, field) {
            (1, Field::Varint(d)) => dims.push(d as usize),
            (1, Field::Bytes(packed)) => fields_packed(packed, file, &mut dims)?,
            (2, Field::Varint(t)) => kind = t,
            (4, Field::Bytes(packed)) => floats.extend(packed.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()))),
            (4, Field::Fixed32(bits)) => floats.push(f32::from_bits(bits)),
            (8, Field::Bytes(text)) => name = String::from_utf8_lossy(text).into_owned(),
            (9, Field::Bytes(data)) => raw = Some(data.to_vec()),
            _ => {}
        }
        Ok(())
    })?;
    if kind != 1 {
        return Ok(None); // not float32: the demo's weights all are
    }
    let count: usize = dims.iter().product();
    let values = match raw {
        Some(data) if !data.is_empty() => data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect(),
        _ => floats,
    };
    if values.len() != count {
        return Err(format!("{file}: initializer \"{name}\": {} float32 values, expected {count} for dims {dims:?}", values.len()));
    }
    Ok(Some((name, Initializer { dims, values })))
}

fn fields_packed(packed: &[u8], file: &str, out: &mut Vec<usize>) -> Result<(), String> {
    let mut r = Reader { bytes: packed, at: 0, file };
    while r.at < packed.len() {
        out.push(r.varint()? as usize);
    }
    Ok(())
}

/// Every float32 initializer of the ONNX file at `path`, by name.
pub fn read_initializers(path: &std::path::Path) -> Result<HashMap<String, Initializer>, String> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{file}: {e}"))?;
    let mut graph = None;
    fields(&bytes, &file, |number, field| {
        if let (7, Field::Bytes(g)) = (number, field) {
            graph = Some(g);
        }
        Ok(())
    })?;
    let graph = graph.ok_or_else(|| format!("{file}: no graph in it (not an ONNX model)"))?;
    let mut out = HashMap::new();
    fields(graph, &file, |number, field| {
        if let (5, Field::Bytes(t)) = (number, field) {
            if let Some((name, init)) = tensor(t, &file)? {
                out.insert(name, init);
            }
        }
        Ok(())
    })?;
    Ok(out)
}

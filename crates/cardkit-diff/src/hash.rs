//! The hashes that tell values apart before they are compared: of bytes,
//! and of an object's members, summed so that their order does not count,
//! each name counted once, with its last value (as the validator, and the
//! comparison that reads a record again, read a name written twice).

/// The tag of an object's hash.
pub(crate) const OBJECT: u8 = 1;
/// The tag of an array's hash.
pub(crate) const ARRAY: u8 = 2;
/// The tag of a string's hash (and of a member's name).
pub(crate) const STRING: u8 = 3;
/// The tag of any other value's hash (its bytes).
pub(crate) const OTHER: u8 = 4;

/// Mixes two words into one (the multiply-and-fold of wyhash): every bit
/// of each reaches every bit of the result.
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let product = u128::from(a ^ 0xA076_1D64_78BD_642F) * u128::from(b ^ 0xE703_7ED1_A0B4_28DB);
    (product as u64) ^ ((product >> 64) as u64)
}

/// A 64-bit hash of `bytes` with a tag for the kind of value they are:
/// eight bytes at a time, each word mixed with the running hash. Fast, for
/// telling values apart (the values whose hashes differ are compared), not
/// against inputs made to collide.
pub(crate) fn hash_of(tag: u8, bytes: &[u8]) -> u64 {
    let mut h = mix(u64::from(tag), bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(word));
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    mix(h, u64::from_le_bytes(last))
}

/// Objects with at most this many members are searched for a name written
/// twice member by member; larger ones are sorted by name.
const SEARCHED: usize = 16;

/// The members of the objects being hashed, the innermost's last: the hash
/// of each one's name and of the member (name and value). One buffer for
/// every object of a walk, so that hashing an object allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct Members(Vec<(u64, u64)>);

impl Members {
    /// Where the members of an object started now begin.
    pub(crate) fn start(&self) -> usize {
        self.0.len()
    }

    /// A member of the innermost object: the hash of its name and of its
    /// value.
    pub(crate) fn push(&mut self, name: u64, value: u64) {
        self.0.push((name, mix(name, value)));
    }

    /// The hash of the object whose members began at `start`, which are
    /// taken off: the same whatever their order, and that of the object
    /// with only the last member of each name (the hash of a name stands
    /// for the name).
    pub(crate) fn finish(&mut self, start: usize) -> u64 {
        let members = &mut self.0[start..];
        let mut sum = members
            .iter()
            .fold(u64::from(OBJECT), |sum, &(_, m)| sum.wrapping_add(m));
        if members.len() <= SEARCHED {
            for (i, &(name, member)) in members.iter().enumerate() {
                if members[i + 1..].iter().any(|&(later, _)| later == name) {
                    sum = sum.wrapping_sub(member);
                }
            }
        } else {
            // A stable sort: the members of one name stay in their order.
            members.sort_by_key(|&(name, _)| name);
            for pair in members.windows(2) {
                if pair[0].0 == pair[1].0 {
                    sum = sum.wrapping_sub(pair[0].1);
                }
            }
        }
        self.0.truncate(start);
        mix(u64::from(OBJECT), sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(members: &[(&str, &str)]) -> u64 {
        let mut buffer = Members::default();
        let start = buffer.start();
        for (name, value) in members {
            buffer.push(
                hash_of(STRING, name.as_bytes()),
                hash_of(OTHER, value.as_bytes()),
            );
        }
        buffer.finish(start)
    }

    #[test]
    fn an_objects_hash_is_its_last_value_of_each_name_in_any_order() {
        let last = object(&[("a", "2"), ("b", "3")]);
        assert_eq!(object(&[("b", "3"), ("a", "2")]), last);
        assert_eq!(object(&[("a", "1"), ("b", "3"), ("a", "2")]), last);
        // The values of a name written twice, swapped: another object.
        assert_ne!(object(&[("a", "2"), ("b", "3"), ("a", "1")]), last);
        // Past the members searched one by one, sorted: the same.
        let many: Vec<(String, String)> =
            (0..40).map(|i| (format!("m{i}"), format!("{i}"))).collect();
        let with = |extra: &[(&'static str, &'static str)]| -> u64 {
            let mut members: Vec<(&str, &str)> = extra.to_vec();
            members.extend(many.iter().map(|(n, v)| (n.as_str(), v.as_str())));
            object(&members)
        };
        let first = with(&[("a", "1"), ("a", "2")]);
        assert_ne!(first, with(&[("a", "2"), ("a", "1")]));
        assert_eq!(first, with(&[("a", "2")]));
    }
}

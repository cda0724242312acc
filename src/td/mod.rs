//! Temporal-difference learning of a Havannah value network (in progress).

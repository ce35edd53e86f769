// Preloaded by the cold-start bench (`node --require`): when the process opens its first socket,
// writes the CPU time it has used so far to stderr. The same for every command measured, so the
// figure compares what each does before its first request, and moves less with the machine's load.
const net = process.getBuiltinModule('node:net');
const { writeSync } = process.getBuiltinModule('node:fs');

const connect = net.Socket.prototype.connect;
let reported = false;
net.Socket.prototype.connect = function (...args) {
  if (!reported) {
    reported = true;
    const { user, system } = process.cpuUsage();
    writeSync(2, `toolplane-bench-cpu-ms ${(user + system) / 1000}\n`);
  }
  return connect.apply(this, args);
};

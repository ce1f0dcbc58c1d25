/**
 * The names this machine answers to, for a listener bound to a wildcard address (`0.0.0.0`,
 * `::`): its host name and the addresses of its network interfaces. A browser that opens
 * `http://192.168.1.20:5088/` sends `Host: 192.168.1.20:5088`; without these names the Host
 * check refuses the very URL the banner prints. Names of other machines stay refused, so a page
 * that rebinds its own domain to this machine is still turned away. I/O: asks the system, with
 * the `sys` permission when granted (`hostname`, `networkInterfaces`), and otherwise returns
 * what it may.
 *
 * @module
 */

/** What {@linkcode localHostNames} found. */
export interface LocalHostNames {
  /** Host values to accept on any port: names, IPv4 addresses, IPv6 addresses in brackets. */
  readonly names: readonly string[];
  /** The address to print in a URL for other machines: the first non-loopback IPv4, if any. */
  readonly shareable: string | undefined;
}

function granted(kind: "hostname" | "networkInterfaces"): boolean {
  return Deno.permissions.querySync?.({ name: "sys", kind }).state === "granted";
}

/**
 * The machine's own names, for a wildcard bind (see the module doc).
 *
 * @returns Names sorted, loopback left out (the guard has those already), and one shareable
 *   address for the banner.
 */
export function localHostNames(): LocalHostNames {
  const names = new Set<string>();
  let shareable: string | undefined;
  if (granted("hostname")) {
    const name = Deno.hostname().toLowerCase();
    if (name !== "" && name !== "localhost") names.add(name);
  }
  if (granted("networkInterfaces")) {
    for (const nic of Deno.networkInterfaces()) {
      if (nic.family === "IPv4") {
        if (nic.address.startsWith("127.")) continue;
        names.add(nic.address);
        shareable ??= nic.address;
      } else if (nic.address !== "::1") {
        // A link-local address carries a zone (`fe80::1%eth0`) that no Host header holds.
        if (nic.address.includes("%")) continue;
        names.add(`[${nic.address.toLowerCase()}]`);
      }
    }
  }
  return { names: [...names].sort(), shareable };
}

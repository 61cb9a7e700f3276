import { measureManyProjects } from './scale.js';

console.log(JSON.stringify(await measureManyProjects(Number(process.env.N ?? 1000))));

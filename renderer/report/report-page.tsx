import { createRoot } from 'react-dom/client';
import type { ReportPageData } from '../../electron/common/report/html/report-page-data.js';
import { ReportApp } from './report-app.js';
import './report-page.css';

/** report.html's script: the data the generator inlined as JSON, rendered once. */
const json = document.getElementById('report-data')?.textContent ?? 'null';
const data = JSON.parse(json) as ReportPageData | null;
const root = document.getElementById('root');
if (root && data) createRoot(root).render(<ReportApp data={data} />);
